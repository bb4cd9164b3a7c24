import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { type Block, type Inline, parseMarkdown } from '../lib/markdown';

function renderInline(nodes: Inline[]): ReactNode {
  return nodes.map((n, i) => {
    switch (n.type) {
      case 'text':
        return <Fragment key={i}>{n.text}</Fragment>;
      case 'strong':
        return <strong key={i}>{renderInline(n.children)}</strong>;
      case 'em':
        return <em key={i}>{renderInline(n.children)}</em>;
      case 'code':
        return <code key={i}>{n.text}</code>;
      case 'link':
        return n.href.startsWith('/') ? (
          <Link key={i} to={n.href}>
            {renderInline(n.children)}
          </Link>
        ) : /^https?:\/\//.test(n.href) ? (
          <a key={i} href={n.href} target="_blank" rel="noopener noreferrer">
            {renderInline(n.children)}
          </a>
        ) : (
          <Fragment key={i}>{renderInline(n.children)}</Fragment>
        );
    }
  });
}

function renderBlock(b: Block, i: number): ReactNode {
  switch (b.type) {
    case 'heading': {
      const H = `h${b.level}` as 'h2' | 'h3' | 'h4';
      return <H key={i}>{renderInline(b.children)}</H>;
    }
    case 'paragraph':
      return <p key={i}>{renderInline(b.children)}</p>;
    case 'list': {
      const L = b.ordered ? 'ol' : 'ul';
      return (
        <L key={i}>
          {b.items.map((item, j) => (
            <li key={j}>{renderInline(item)}</li>
          ))}
        </L>
      );
    }
    case 'quote':
      return <blockquote key={i}>{renderInline(b.children)}</blockquote>;
    case 'rule':
      return <hr key={i} />;
  }
}

export function MarkdownView({ source, className }: { source: string; className?: string }) {
  return <div className={className}>{parseMarkdown(source).map(renderBlock)}</div>;
}
