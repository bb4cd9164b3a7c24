import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

/** An unhandled rejection in the local runtime's process is logged and the process goes on (Node's default: exit). */
describe('logUnhandledRejections', () => {
  const run = (guarded: boolean) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `
    ${guarded ? "require('./local/process-guard').logUnhandledRejections();" : ''}
    Promise.reject(new Error('forgotten'));
    setTimeout(() => console.log('still alive'), 100);
  `,
      ],
      { cwd: path.join(__dirname, '../..'), encoding: 'utf8' },
    );

  test('guarded: logged with the marker, the process keeps running', () => {
    const res = run(true);
    expect(res.stdout).toContain('still alive');
    expect(res.stderr).toContain('[runtime] unhandled rejection (logged, not fatal):');
    expect(res.status).toBe(0);
  });

  test('unguarded (the control): Node ends the process', () => {
    const res = run(false);
    expect(res.stdout).not.toContain('still alive');
    expect(res.status).not.toBe(0);
  });
});
