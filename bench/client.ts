/** What the benches ask of the local runtime: the API as the site calls it, where any answer but 200 is an error. */
import { api, uploadPhoto, waitForJob } from '../test/support/runtime';

export function benchClient(baseUrl: string) {
  const client = api(baseUrl);
  // A bench measures the way that works: a refusal is a failed run, not a figure.
  const call = async (method: 'GET' | 'POST', p: string, body?: unknown) => {
    const res = method === 'GET' ? await client.get(p) : await client.post(p, body);
    if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const job = async (id: string) => {
    if ((await waitForJob(client, id)) !== 'SUCCESS') throw new Error(`job ${id} failed`);
  };
  /** Registers and uploads a photo as the browser does; returns its hash. */
  const upload = (bytes: Buffer) => uploadPhoto(client, bytes, bytes[0] === 0xff ? 'image/jpeg' : 'image/png');
  /** Uploads a photo and has it moderated, as the site does before checkout; returns its hash. */
  const moderatedPhoto = async (bytes: Buffer) => {
    const hash = await upload(bytes);
    await job((await call('POST', '/api/process-moderation', { image_hashes: [hash] })).job_id);
    return hash;
  };
  /** Polls an order until it is completed or failed. */
  const generation = async (orderId: string, pollMs: number) => {
    for (;;) {
      const g = await call('GET', `/api/generation/${orderId}`);
      if (g.status === 'completed' || g.status === 'failed') return g;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };
  return { call, job, upload, moderatedPhoto, generation };
}
