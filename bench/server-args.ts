// The node arguments `npm start` runs the service with, read from package.json so the benchmark
// measures exactly what a deployment starts (flags included).
import { readFileSync } from 'node:fs';

export function serverArgs(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const last = start.split('&&').pop()!.trim().split(/\s+/);
  if (last[0] !== 'node') throw new Error(`package.json start does not end in a node command: ${start}`);
  return last.slice(1);
}
