/** A structured log method in pino's shape: bindings first, then an optional message. */
export type LogMethod = (bindings: Record<string, unknown>, message?: string) => void;

/** The logger the engine writes to; a pino logger satisfies it as is. */
export interface EngineLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const ignore: LogMethod = () => undefined;

/** A logger that drops everything, used when the host injects none. */
export const silentLogger: EngineLogger = {
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
};
