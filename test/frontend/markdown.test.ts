import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * The build-time Markdown pipeline (frontend/build/content.ts). unified is ES modules only, so the pipeline
 * runs under tsx in its own process, as the build runs it.
 */
function render(markdown: string): string {
  const tsxCli = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
  const script =
    "import { markdownToHtml } from './frontend/build/content'; process.stdout.write(JSON.stringify(markdownToHtml(process.argv[process.argv.length - 1])));";
  const out = execFileSync(process.execPath, [tsxCli, '--eval', script, markdown], {
    cwd: path.resolve(__dirname, '../..'),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string;
}

describe('Markdown pipeline', () => {
  test('GitHub-flavoured Markdown to HTML; body headings start at h2; raw HTML is dropped', () => {
    const html = render(
      [
        '# Top heading',
        '',
        'Para with **bold**, *em*, `code` and a [link](/pricing).',
        '',
        '### Third level',
        '',
        '- one',
        '- two',
        '',
        '| Style | Price |',
        '|---|---|',
        '| Anime | $0.80 |',
        '',
        '<script>alert(1)</script>',
        '',
        '<img src=x onerror=alert(1)>',
      ].join('\n'),
    );
    expect(html).toContain('<h2>Top heading</h2>');
    expect(html).not.toContain('<h1');
    expect(html).toContain('<h3>Third level</h3>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a href="/pricing">link</a>');
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<table>[\s\S]*<th>Style<\/th>[\s\S]*<td>\$0\.80<\/td>/);
    expect(html).not.toMatch(/<script|onerror|<img/);
  });
});
