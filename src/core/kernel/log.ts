// The logger the core writes to (pino in the composition root, anything with these three in tests).
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
