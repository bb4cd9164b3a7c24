import fs from 'node:fs';
import path from 'node:path';
import { formatArticleDate, parseArticle, slugFromPath, sortArticles, titleFromSlug, withBrand } from '../../frontend/src/blog/parse';
import { parseInline, parseMarkdown } from '../../frontend/src/lib/markdown';

describe('blog articles', () => {
  it('derives slugs and fallback titles', () => {
    expect(slugFromPath('./posts/make-your-pet-a-pixar-character.md')).toBe('make-your-pet-a-pixar-character');
    expect(slugFromPath('posts/x.mdx')).toBe('x');
    expect(titleFromSlug('ai-avatar-maker-free')).toBe('Ai avatar maker free');
  });

  it('parses front matter and falls back to the slug title', () => {
    const a = parseArticle('./posts/hello-world.md', '---\ntitle: "Hi: there"\ndate: 2025-01-02\n---\n\nBody text\n');
    expect(a).toEqual({ slug: 'hello-world', title: 'Hi: there', date: '2025-01-02', description: undefined, image: undefined, body: 'Body text' });
    const b = parseArticle('./posts/no-front-matter.md', '# Heading\n\nText');
    expect(b.title).toBe('No front matter');
    expect(b.body).toBe('# Heading\n\nText');
  });

  it('sorts newest first, undated last', () => {
    const mk = (slug: string, date?: string) => ({ slug, title: slug, date, body: '' });
    expect(sortArticles([mk('a', '2025-01-01'), mk('b'), mk('c', '2025-06-01'), mk('d', '2024-12-31')]).map((a) => a.slug)).toEqual([
      'c',
      'a',
      'd',
      'b',
    ]);
  });

  it('fills the brand and formats dates', () => {
    expect(withBrand('Try {brand}! {brand}.', 'ToonZap')).toBe('Try ToonZap! ToonZap.');
    expect(formatArticleDate('2025-05-09', 'en-US')).toBe('May 9, 2025');
    expect(formatArticleDate('someday', 'en-US')).toBe('someday');
  });

  it('ships real articles with title, description and date, and no hard-coded brand', () => {
    const dir = path.resolve(__dirname, '../../frontend/src/blog/posts');
    const files = fs.readdirSync(dir).filter((f) => /\.mdx?$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) {
      const raw = fs.readFileSync(path.join(dir, f), 'utf8');
      const a = parseArticle(f, raw);
      expect(a.title).not.toBe(titleFromSlug(a.slug));
      expect(a.description).toBeTruthy();
      expect(a.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(a.body.split(/\s+/).length).toBeGreaterThan(150);
      expect(raw).not.toMatch(/ToonZap/);
    }
  });
});

describe('markdown subset', () => {
  it('parses blocks', () => {
    const blocks = parseMarkdown('# Title\n\nPara one\ncontinues.\n\n- a\n- b\n\n1. x\n2. y\n\n> quote\n\n---');
    expect(blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'list', 'quote', 'rule']);
    expect(blocks[0]).toMatchObject({ level: 2 });
    expect(blocks[1]).toEqual({ type: 'paragraph', children: [{ type: 'text', text: 'Para one continues.' }] });
    expect(blocks[2]).toMatchObject({ ordered: false });
    expect(blocks[3]).toMatchObject({ ordered: true });
  });

  it('parses inline formatting and links', () => {
    expect(parseInline('a **b** *c* `d` [e](/pricing)')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'strong', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'd' },
      { type: 'text', text: ' ' },
      { type: 'link', href: '/pricing', children: [{ type: 'text', text: 'e' }] },
    ]);
  });
});
