/**
 * Docker, when the deploy builds the engine's image (engine/Dockerfile, linux/amd64) because no engineImageUri is
 * given: `docker info` must answer, and a non-x86 machine needs emulation for the amd64 build.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Check, type DockerProbe, describeError } from '../types';

/** The real probe: `docker info` (the daemon must answer, not just the CLI exist). */
export const dockerInfo: DockerProbe = async () => {
  const { stdout } = await promisify(execFile)('docker', ['info', '--format', '{{.ServerVersion}} {{.Architecture}}'], {
    timeout: 30_000,
  }).catch((e: Error & { stderr?: string }) => {
    // The daemon's own words ("Cannot connect to the Docker daemon ..."), not the command line.
    throw new Error(e.stderr?.trim().split('\n')[0] || e.message);
  });
  const [serverVersion = '', architecture = ''] = stdout.trim().split(/\s+/);
  if (!serverVersion) throw new Error('docker info named no server version');
  return { serverVersion, architecture };
};

export const docker: Check = {
  title: 'Docker for the engine image',
  needsAccount: false,
  async run(ctx) {
    const title = 'Docker (engine image)';
    if (ctx.config.engineImageUri)
      return [{ status: 'pass', title, detail: `not needed: engineImageUri is ${ctx.config.engineImageUri}` }];
    try {
      const info = await ctx.docker();
      if (info.architecture === 'x86_64' || info.architecture === 'amd64')
        return [{ status: 'pass', title, detail: `Docker ${info.serverVersion} on ${info.architecture}` }];
      return [
        {
          status: 'warn',
          title,
          detail: `Docker ${info.serverVersion} on ${info.architecture}: the linux/amd64 engine image is built through emulation (slow)`,
          fix: 'make sure amd64 emulation works (`docker run --rm --platform linux/amd64 alpine uname -m` prints x86_64), or deploy with -c engineImageUri=<ECR URI>',
        },
      ];
    } catch (e) {
      return [
        {
          status: 'fail',
          title,
          detail: `docker info failed: ${describeError(e)}`,
          fix: 'install and start Docker (the deploy builds engine/Dockerfile), or deploy with -c engineImageUri=<ECR image URI>',
        },
      ];
    }
  },
};
