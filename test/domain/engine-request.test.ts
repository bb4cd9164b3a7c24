import { EngineRequestError, MAX_ENGINE_OUTPUTS, parseEngineRequest } from '../../domain/engine-request';
import { STYLE_IDS } from '../../domain/styles';

/** domain/engine-request.ts: the one request format the handlers send and the engine parses. */
const input = { bucket: 'media', key: 'uploads/abc' };
const out = (style: string) => ({ style, bucket: 'media', key: `previews/abc/${style}.png` });
const refusal = (body: unknown) => {
  try {
    parseEngineRequest(body);
  } catch (err) {
    expect(err).toBeInstanceOf(EngineRequestError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
};

describe('engine request', () => {
  test('a batch (a body with outputs) gets its defaults', () => {
    expect(parseEngineRequest({ input, outputs: [out('anime')] })).toEqual({
      batch: true,
      request: { input, outputs: [out('anime')], kind: 'image', watermark: false },
    });
    const thumbs = parseEngineRequest({ input, kind: 'thumbnail', size: 256, watermark: true, outputs: [out('3d')] });
    expect(thumbs.request).toMatchObject({ kind: 'thumbnail', size: 256, watermark: true });
  });

  test('a single render: to an object, or inline when the input is inline', () => {
    expect(parseEngineRequest({ input, output: input, style: 'sketch' })).toMatchObject({ batch: false });
    expect(parseEngineRequest({ input: { data: 'iVBO' }, style: 'sketch' }).request).toMatchObject({
      input: { data: 'iVBO' },
      kind: 'image',
    });
  });

  test('the check operation: a photo and the image to check, both in S3', () => {
    const output = { bucket: 'media', key: 'outputs/abc/3d.png' };
    expect(parseEngineRequest({ op: 'check', input, output })).toEqual({
      batch: false,
      check: true,
      request: { op: 'check', input, output },
    });
    expect(refusal({ op: 'grade', input, output })).toBe('"op" must be "check"');
    expect(refusal({ op: 'check', input })).toMatch(/^"output" /);
    expect(refusal({ op: 'check', input: { data: 'iVBO' }, output })).toMatch(/^"input\.bucket" /);
  });

  test('each bad request is refused with the reason, naming the field', () => {
    expect(refusal('[]')).toBe('Request body must be a JSON object.');
    expect(refusal([])).toBe('Request body must be a JSON object.');
    expect(refusal({ input, output: input, style: 'vaporwave' })).toBe(
      `Unknown style 'vaporwave'. Known styles: ${STYLE_IDS.join(', ')}.`,
    );
    expect(refusal({ input, outputs: [out('anime'), out('cubism')] })).toMatch(/^Unknown style 'cubism'/);
    expect(refusal({ input, output: input })).toBe('"style" is required');
    expect(refusal({ input, style: 'anime' })).toBe('"output" is required: {"bucket","key"}');
    expect(refusal({ style: 'anime' })).toMatch(/^"input" must be \{"bucket","key"\}/);
    expect(refusal({ input, output: input, style: 'anime', size: 8 })).toBe(
      '"size" must be an integer between 16 and 4096',
    );
    expect(refusal({ input, output: input, style: 'anime', size: 20.5 })).toMatch(/"size" must be an integer/);
    expect(refusal({ input, output: input, style: 'anime', kind: 'poster' })).toBe(
      '"kind" must be "image" or "thumbnail"',
    );
    expect(refusal({ input, output: input, style: 'anime', watermark: 'yes' })).toBe('"watermark" must be a boolean');
    expect(refusal({ input: { bucket: '', key: 'k' }, outputs: [out('anime')] })).toBe(
      '"input.bucket" must name a bucket',
    );
    expect(refusal({ input, outputs: [] })).toMatch(/^"outputs" /);
    const many = Array.from({ length: MAX_ENGINE_OUTPUTS + 1 }, () => out('anime'));
    expect(refusal({ input, outputs: many })).toBe(
      `"outputs" must list 1 to ${MAX_ENGINE_OUTPUTS} {"style","bucket","key"}`,
    );
    // a batch never takes inline data: there is no bucket to keep the photo's analysis in
    expect(refusal({ input: { data: 'iVBO' }, outputs: [out('anime')] })).toMatch(/^"input\.bucket"/);
  });
});
