import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sourcesKey } from '../../local/template';

/** The synthesized template is cached; the CloudFront Function in it embeds the built not-found page. */
describe('template cache key', () => {
  it('changes when the built site changes, so a rebuilt site never meets a stale CloudFront Function', () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'toonzap-dist-'));
    const key = () => sourcesKey(['lib/toonzap-stack.ts'], 'simulated', dist);
    fs.writeFileSync(path.join(dist, '404.html'), '<p>one</p>');
    const one = key();
    fs.writeFileSync(path.join(dist, '404.html'), '<p>two</p>');
    const two = key();
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(two).not.toBe(one);
    expect(key()).toBe(two);
    fs.mkdirSync(path.join(dist, 'blog', 'new'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'blog', 'new', 'index.html'), '<p>a new article</p>');
    expect(key()).not.toBe(two);
    fs.rmSync(dist, { recursive: true, force: true });
  });
});
