// k6 provides a console global that @types/k6 does not declare (it expects the DOM lib, which k6 lacks).
declare const console: {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
};
