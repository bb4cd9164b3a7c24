import { moderate } from '../support/orders';
import { api, photo, startTestRuntime, uploadPhoto } from '../support/runtime';

/** Payment mode 'prelaunch': no checkout, sign-ups instead. */
describe('prelaunch', () => {
  let runtime: Awaited<ReturnType<typeof startTestRuntime>>;
  let client: ReturnType<typeof api>;

  beforeAll(async () => {
    runtime = await startTestRuntime({ paymentMode: 'prelaunch' });
    client = api(runtime.url);
  });
  afterAll(async () => {
    await runtime?.close();
  });

  test('checkout answers 409 and takes no order; sign-ups work', async () => {
    expect(runtime.stripeUrl).toBeNull();
    const hash = await uploadPhoto(client, photo('astronaut.png'));
    expect(
      await client.post('/api/checkout', { email: 'early@example.com', hashes: [hash], styles: ['anime'] }),
    ).toEqual({ status: 409, body: { detail: 'Payments are not live yet.' } });
    expect((await client.post('/api/stripe-webhook', { id: 'evt_1' })).status).toBe(409);
    // As the wizard does: sign-up comes after the style step moderated the photo (and so confirmed its owner).
    await moderate(client, [hash]);
    expect(await client.post('/api/preview-signup', { email: 'early@example.com', image_hash: hash })).toEqual({
      status: 201,
      body: { status: 'signed_up' },
    });
    expect(await client.post('/api/preview-signup', { email: 'EARLY@example.com', image_hash: hash })).toEqual({
      status: 200,
      body: { status: 'already_signed_up' },
    });
  });
});
