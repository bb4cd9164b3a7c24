/**
 * The local runtime serves every visitor from one process: a promise rejected and forgotten somewhere (an emulator,
 * a stand-in, a handler's stray promise) must not end it. Node's default for an unhandled rejection is to exit;
 * this logs it instead, with a marker the battery test looks for. Installed by the entry points, not by
 * startLocalRuntime, so tests that embed the runtime keep Jest's own handling.
 */
export const UNHANDLED_REJECTION_MARKER = '[runtime] unhandled rejection (logged, not fatal):';

export function logUnhandledRejections(
  log: (line: string, err: unknown) => void = (line, err) => console.error(line, err),
): void {
  process.on('unhandledRejection', (reason) => log(UNHANDLED_REJECTION_MARKER, reason));
}

/**
 * Runs an entry point (`npm start`, `npm run dev`): `start` returns how to close what it started, which Ctrl+C or a
 * SIGTERM does before exiting 0; a failure to start exits 1.
 */
export function runEntryPoint(start: () => Promise<() => Promise<void>>): void {
  start().then(
    (close) => {
      const stop = async () => {
        await close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
