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
