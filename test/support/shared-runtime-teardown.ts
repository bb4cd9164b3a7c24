/** Jest globalTeardown of the browser project: stops the shared runtime (same process as its globalSetup). */
export default async function teardown(): Promise<void> {
  await (globalThis as { toonzapSharedRuntime?: { stop(): Promise<void> } }).toonzapSharedRuntime?.stop();
}
