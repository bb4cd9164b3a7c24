import sharp from 'sharp';
import { FAST_UPSCALE_MODEL_ID, GENERATIVE_PRESETS, UPSCALE_MODELS } from '../../domain/generative';
import { PAID_LONG_SIDE } from '../../domain/image-format';
import { ENV, GENERATIVE_ERRORS, METRICS } from '../../domain/wiring';
import { GenerativeError } from '../../lambdas/lib/bedrock';
import { enlargeStored, upscaleBody, upscaleInputLongSide } from '../../lambdas/lib/upscale';

// The store, the minute counter, the model call and the metrics, in memory: what enlargeStored decides is tested here;
// the upscale body against the Bedrock stand-in is test/local/bedrock.test.ts; whole orders, test/runtime/generative.test.ts.
const objects = new Map<string, Buffer>();
const calls: { modelId: string; body: Record<string, unknown> }[] = [];
const metrics: string[] = [];
let answer: (body: Record<string, unknown>) => Promise<Buffer> = async () => Buffer.alloc(0);
jest.mock('../../lambdas/lib/media', () => ({
  readObject: async (k: string) => objects.get(k) ?? null,
  writeObject: async (k: string, b: Buffer) => void objects.set(k, b),
}));
jest.mock('../../lambdas/lib/capacity', () => ({
  ...jest.requireActual('../../lambdas/lib/capacity'),
  withModelRequest: async (_m: string, _p: string, call: () => Promise<unknown>) => ({
    admitted: true,
    value: await call(),
  }),
}));
jest.mock('../../lambdas/lib/bedrock', () => ({
  ...jest.requireActual('../../lambdas/lib/bedrock'),
  invokeImageModel: async (modelId: string, body: Record<string, unknown>) => {
    calls.push({ modelId, body });
    return answer(body);
  },
}));
jest.mock('../../lambdas/lib/observability', () => ({
  ...jest.requireActual('../../lambdas/lib/observability'),
  countMetric: (m: string) => void metrics.push(m),
}));

const anime = GENERATIVE_PRESETS.anime;
const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3080c0' } })
    .png()
    .toBuffer();
const size = async (b: Buffer) => {
  const m = await sharp(b).metadata();
  return [m.width, m.height];
};

describe('upscale sizes and body', () => {
  test('Fast Upscale takes at most 1 MP and 1536 px a side: a 1536x1152 image is shrunk first', () => {
    const long = upscaleInputLongSide(FAST_UPSCALE_MODEL_ID, 1536, 1152)!;
    expect(long * Math.round((1152 * long) / 1536)).toBeLessThanOrEqual(
      UPSCALE_MODELS[FAST_UPSCALE_MODEL_ID].maxPixels,
    );
    expect(long).toBe(1182);
    expect(upscaleInputLongSide(FAST_UPSCALE_MODEL_ID, 800, 600)).toBe(800); // never enlarged
    expect(upscaleInputLongSide(FAST_UPSCALE_MODEL_ID, 3000, 1000)).toBeNull(); // 3:1 is outside 2.5:1
    expect(upscaleInputLongSide('stability.stable-conservative-upscale-v1:0', 1536, 1152)).toBe(1536);
  });

  test('the documented bodies: Fast is image and format only, Conservative carries the prompt', () => {
    const png = Buffer.from('png');
    expect(upscaleBody(FAST_UPSCALE_MODEL_ID, png, anime)).toEqual({ image: 'cG5n', output_format: 'png' });
    expect(upscaleBody('stability.stable-conservative-upscale-v1:0', png, anime)).toEqual({
      image: 'cG5n',
      output_format: 'png',
      prompt: anime.prompt,
      negative_prompt: anime.negativePrompt,
    });
  });
});

describe('enlargeStored', () => {
  const key = 'outputs/h/anime.png';
  beforeEach(() => {
    objects.clear();
    calls.length = 0;
    metrics.length = 0;
    process.env[ENV.bedrockUpscaleModelId] = `us.${FAST_UPSCALE_MODEL_ID}`;
  });
  afterAll(() => {
    delete process.env[ENV.bedrockUpscaleModelId];
  });

  test("the service's x4 image is brought down to exactly the paid long side", async () => {
    objects.set(key, await image(1536, 1152));
    answer = async (body) => {
      const [w, h] = await size(Buffer.from(body.image as string, 'base64'));
      return sharp(Buffer.from(body.image as string, 'base64'))
        .resize(w! * 4, h! * 4)
        .png()
        .toBuffer();
    };
    await enlargeStored(key, 'anime', anime);
    expect(calls).toHaveLength(1);
    expect(await size(Buffer.from(calls[0].body.image as string, 'base64'))).toEqual([1182, 887]);
    // The shrink rounded the short side: the aspect may move by a pixel, the long side is exact.
    const [w, h] = await size(objects.get(key)!);
    expect(w).toBe(PAID_LONG_SIDE);
    expect(Math.abs(h! - 1536)).toBeLessThanOrEqual(1);
    expect(metrics).toEqual([]);
  });

  test('misconfigured: lanczos3 enlarges instead, counted; throttled: thrown, the image kept', async () => {
    const small = await image(1536, 1152);
    objects.set(key, small);
    answer = async () => {
      throw new GenerativeError('AccessDeniedException: no', GENERATIVE_ERRORS.misconfigured);
    };
    await enlargeStored(key, 'anime', anime);
    expect(await size(objects.get(key)!)).toEqual([PAID_LONG_SIDE, 1536]);
    expect(metrics).toEqual([METRICS.upscaleFallbacks]);

    objects.set(key, small);
    answer = async () => {
      throw new GenerativeError('ThrottlingException: slow down', GENERATIVE_ERRORS.throttled);
    };
    await expect(enlargeStored(key, 'anime', anime)).rejects.toMatchObject({ name: GENERATIVE_ERRORS.throttled });
    expect(objects.get(key)).toBe(small);
  });

  test('a full-size image is left alone; without the setting lanczos3 enlarges with no model call', async () => {
    const full = await image(2048, 1536);
    objects.set(key, full);
    await enlargeStored(key, 'anime', anime);
    expect(objects.get(key)).toBe(full);
    delete process.env[ENV.bedrockUpscaleModelId];
    objects.set(key, await image(1000, 750));
    await enlargeStored(key, 'anime', anime);
    expect(calls).toEqual([]);
    expect(await size(objects.get(key)!)).toEqual([PAID_LONG_SIDE, 1536]);
  });
});
