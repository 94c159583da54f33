/**
 * Whether this is a development build: what `import.meta.env.DEV` says, read through
 * `process.env.NODE_ENV`, which Vite defines for the browser too ('production' in `vite build`,
 * 'development' on the dev server) and which jest can read: jest's CommonJS test modules cannot parse
 * `import.meta`.
 */
export const isDevelopmentBuild = process.env.NODE_ENV !== 'production';
