/**
 * Test-only kill points. When TOONZAP_PAUSE_AT names a point, the run that reaches it prints {"paused_at": name} on
 * stdout and never goes on, so a fault test can SIGKILL the process exactly there (test/faults/fulfilment-faults.test.ts, npm run test:slow).
 * The variable is set nowhere else (not by the stack, not by `npm start`), so everywhere else this returns at once.
 */
export async function pausePoint(name: string): Promise<void> {
  if (process.env.TOONZAP_PAUSE_AT !== name) return;
  process.stdout.write(`${JSON.stringify({ paused_at: name })}\n`);
  await new Promise<never>(() => {});
}
