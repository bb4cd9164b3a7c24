/**
 * `npm run samples` against the local Bedrock stand-in through the AWS SDK, as an operator runs it against Bedrock:
 * the documented InvokeModel call, the image written where the landing reads it, the manifest naming the model.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { DEFAULT_BEDROCK_REGION, generativePreset } from '../../domain/generative';
import { type LocalBedrock, startLocalBedrock } from '../../local/bedrock/server';

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);

describe('npm run samples', () => {
  let bedrock: LocalBedrock;
  let dir: string;
  const calls: string[] = [];

  beforeAll(async () => {
    const preset = generativePreset('3d', DEFAULT_BEDROCK_REGION);
    bedrock = await startLocalBedrock({ styles: { '3d': preset }, log: (l) => calls.push(l) });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-samples-'));
  });
  afterAll(async () => {
    await bedrock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const samples = (args: string[], env: Record<string, string>) =>
    run(process.execPath, [require.resolve('tsx/cli'), 'scripts/samples.ts', ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: 'x',
        AWS_SECRET_ACCESS_KEY: 'x',
        AWS_REGION: DEFAULT_BEDROCK_REGION,
        ...env,
      },
    });

  test('calls the model through InvokeModel and writes the sample and its manifest', async () => {
    const manifest = path.join(dir, 'samples.json');
    const out = path.join(dir, 'public');
    await samples(['--styles', '3d', '--out-dir', out, '--manifest', manifest], {
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url,
    });
    const written = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    expect(Object.keys(written)).toEqual(['3d']);
    expect(written['3d'].modelId).toBe(generativePreset('3d', DEFAULT_BEDROCK_REGION).modelId);
    expect(written['3d'].made).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const file = path.join(out, path.basename(written['3d'].src));
    expect(written['3d'].src).toMatch(/^\/samples\/3d-[0-9a-f]{10}\.webp$/);
    const meta = await sharp(file).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', written['3d'].width, written['3d'].height]);
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(512);
  });

  test('refuses to make a stand-in image the site sample, and reports a model the account lacks', async () => {
    await expect(samples(['--styles', '3d'], { AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url })).rejects.toMatchObject({
      stderr: expect.stringContaining('not the deployed model'),
    });
    await expect(
      samples(
        [
          '--styles',
          '3d',
          '--model-id',
          // A model this account has no such profile for (the stand-in knows models by their foundation model).
          'us.stability.no-such-model-v1:0',
          '--out-dir',
          dir,
          '--manifest',
          path.join(dir, 'x.json'),
        ],
        {
          AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.url,
        },
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('GenerativeMisconfigured') });
    expect(fs.existsSync(path.join(dir, 'x.json'))).toBe(false);
  });
});
