import { isPaymentReady } from '../../frontend/src/lib/config';
import { fileKey, selectFiles } from '../../frontend/src/lib/file-select';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);

const file = (name: string, bytes: Uint8Array<ArrayBuffer>, type: string, lastModified = 1) =>
  new File([bytes], name, { type, lastModified });

describe('selectFiles', () => {
  it('detects the type from the bytes, rejects the rest with the first message', async () => {
    const picked = [
      file('a.jpg', PNG, 'image/jpeg'), // really a PNG: accepted as image/png
      file('b.gif', new TextEncoder().encode('GIF89a'), 'image/jpeg'),
      file('c.jpg', JPEG, ''),
    ];
    const { added, message } = await selectFiles([], picked);
    expect(added.map((f) => [f.file.name, f.type])).toEqual([
      ['a.jpg', 'image/png'],
      ['c.jpg', 'image/jpeg'],
    ]);
    expect(message).toBe('Only JPG/PNG files are allowed');
    expect(added[0].previewUrl).toMatch(/^blob:/);
  });

  it('ignores a file that is already selected', async () => {
    const a = file('a.jpg', JPEG, 'image/jpeg');
    const first = await selectFiles([], [a]);
    const again = await selectFiles(first.added, [a, file('a.jpg', JPEG, 'image/jpeg', 2)]);
    expect(again.added).toHaveLength(1);
    expect(fileKey(again.added[0].file)).not.toBe(fileKey(a));
  });
});

describe('isPaymentReady', () => {
  it('needs a loaded config that is not pre-launch', () => {
    expect(isPaymentReady({ status: 'loading', config: null })).toBe(false);
    expect(isPaymentReady({ status: 'error', config: null })).toBe(false);
    const cfg = (paymentMode: 'stripe' | 'simulated' | 'prelaunch') => ({
      brand: 'ToonZap',
      paymentMode,
      publishableKey: null,
      supportEmail: 'support@toonzap.example',
      generativeStandIn: false,
    });
    expect(isPaymentReady({ status: 'ready', config: cfg('prelaunch') })).toBe(false);
    expect(isPaymentReady({ status: 'ready', config: cfg('stripe') })).toBe(true);
    expect(isPaymentReady({ status: 'ready', config: cfg('simulated') })).toBe(true);
  });
});
