#!/usr/bin/env node
// Installed entry point: runs the TypeScript CLI through tsx's require hook (docs/adr/0004-typescript-runtime.md).
require('tsx/cjs');
require('./ledgerwise.ts');
