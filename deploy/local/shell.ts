import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A failure that tells the user what to do about it (a missing toolchain, a failed build). */
export class InfraError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InfraError';
  }
}

export type RunOptions = { cwd?: string; env?: NodeJS.ProcessEnv; label: string };

/**
 * Runs a build step, echoing a line now and then so a long first build shows progress
 * (the Go module downloads print one line per module).
 */
export const runStep = (command: string, args: string[], options: RunOptions): Promise<void> =>
  new Promise((resolvePromise, reject) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    let lastEcho = 0;
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        tail.push(line);
        if (tail.length > 30) tail.shift();
        if (Date.now() - lastEcho > 5000) {
          lastEcho = Date.now();
          process.stdout.write(
            `  [${options.label} ${Math.round((Date.now() - started) / 1000)}s] ${line.slice(0, 120)}\n`,
          );
        }
      }
    };
    const ticker = setInterval(() => {
      process.stdout.write(
        `  [${options.label} ${Math.round((Date.now() - started) / 1000)}s] still working...\n`,
      );
    }, 30_000);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      clearInterval(ticker);
      reject(new InfraError(`${options.label}: could not run ${command}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearInterval(ticker);
      if (code === 0) resolvePromise();
      else reject(new InfraError(`${options.label} failed (exit ${String(code)}):\n${tail.join('\n')}`));
    });
  });

/** Fails with an install hint when a toolchain is missing. */
export const requireTool = (tool: 'go' | 'java' | 'mvn', hint: string): Promise<void> => {
  const versionArgs = { go: ['version'], java: ['-version'], mvn: ['-v'] }[tool];
  try {
    execFileSync(tool, versionArgs, { stdio: 'ignore' });
    return Promise.resolve();
  } catch {
    return Promise.reject(
      new InfraError(`${tool} is needed to provision the local servers but was not found. ${hint}`),
    );
  }
};

/**
 * A cross-process lock (mkdir is atomic), so two clones or a test run and `infra up` do not build
 * the same server at once. A lock older than an hour is taken to be left over from a killed build.
 */
export const withLock = async <T>(lockPath: string, work: () => Promise<T>): Promise<T> => {
  const deadline = Date.now() + 60 * 60 * 1000;
  for (;;) {
    try {
      mkdirSync(lockPath, { recursive: false });
      writeFileSync(join(lockPath, 'pid'), String(process.pid));
      break;
    } catch {
      if (existsSync(lockPath) && Date.now() - statSync(lockPath).mtimeMs > 60 * 60 * 1000) {
        rmSync(lockPath, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new InfraError(`timed out waiting for the lock ${lockPath}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockPath, { recursive: true, force: true });
  }
};
