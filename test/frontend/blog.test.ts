import fs from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { CONTENT_COLLECTIONS, routePattern, SITE_ROUTES, slugFromFile } from '../../domain/site-routes';
import {
  formatArticleDate,
  htmlWithBrand,
  sortEntries,
  titleFromSlug,
  withBrand,
} from '../../frontend/src/blog/content';

describe('blog and guide entries', () => {
  it('derives slugs from file names and fallback titles from slugs', () => {
    expect(slugFromFile('./posts/make-your-pet-a-pixar-character.md')).toBe('make-your-pet-a-pixar-character');
    expect(slugFromFile('x.mdx')).toBe('x');
    expect(slugFromFile('notes.txt')).toBeNull();
    expect(slugFromFile('.hidden.md')).toBeNull();
    expect(titleFromSlug('ai-avatar-maker-free')).toBe('Ai avatar maker free');
  });

  it('sorts newest first, undated last', () => {
    const mk = (slug: string, date?: string) => ({ slug, title: slug, date });
    expect(
      sortEntries([mk('a', '2025-01-01'), mk('b'), mk('c', '2025-06-01'), mk('d', '2024-12-31')]).map((a) => a.slug),
    ).toEqual(['c', 'a', 'd', 'b']);
  });

  it('fills the brand (escaped in HTML) and formats dates', () => {
    expect(withBrand('Try {brand}! {brand}.', 'ToonZap')).toBe('Try ToonZap! ToonZap.');
    expect(htmlWithBrand('<p>{brand}</p>', 'A&B <x>')).toBe('<p>A&amp;B &lt;x&gt;</p>');
    expect(formatArticleDate('2025-05-09', 'en-US')).toBe('May 9, 2025');
    expect(formatArticleDate('someday', 'en-US')).toBe('someday');
  });

  it.each(Object.entries(CONTENT_COLLECTIONS))(
    '%s: every file has title, description and date front matter, a real body and no hard-coded brand',
    (_name, c) => {
      const dir = path.resolve(__dirname, '../..', c.dir);
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.mdx?$/.test(f)) : [];
      for (const f of files) {
        expect(slugFromFile(f)).not.toBeNull();
        const raw = fs.readFileSync(path.join(dir, f), 'utf8');
        const { data, content } = matter(raw);
        expect([f, typeof data.title]).toEqual([f, 'string']);
        expect([f, typeof data.description]).toEqual([f, 'string']);
        const date = data.date instanceof Date ? data.date.toISOString().slice(0, 10) : String(data.date);
        expect([f, date]).toEqual([f, expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)]);
        expect(content.split(/\s+/).length).toBeGreaterThan(150);
        expect([f, /ToonZap/.test(raw)]).toEqual([f, false]);
      }
    },
  );
});

describe('site route list', () => {
  it('turns React Router paths into patterns', () => {
    const re = (p: string) => new RegExp(routePattern(p));
    expect(re('/').test('/')).toBe(true);
    expect(re('/').test('/x')).toBe(false);
    expect(re('/status/:id?').test('/status')).toBe(true);
    expect(re('/status/:id?').test('/status/abc')).toBe(true);
    expect(re('/status/:id?').test('/status/abc/def')).toBe(false);
    expect(re('/image/:hash/:style').test('/image/a/b')).toBe(true);
    expect(re('/image/:hash/:style').test('/image/a')).toBe(false);
    expect(re('/blog').test('/blogs')).toBe(false);
  });

  it('defines each path once, with a collection route under its collection base', () => {
    const paths = SITE_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of SITE_ROUTES)
      if ('collection' in r) expect(r.path).toBe(`${CONTENT_COLLECTIONS[r.collection].base}/:slug`);
  });
});
