import {
  type AnchorHTMLAttributes,
  type ComponentType,
  createContext,
  type MouseEvent,
  type ReactNode,
  useContext,
} from 'react';
import { preloadApp, startApp } from '../lib/boot';

export type SmartLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  children?: ReactNode;
};

/** The router's Link, provided by the app; absent in the landing shell. */
export const LinkImplContext = createContext<ComponentType<SmartLinkProps> | null>(null);

function isPlainClick(e: MouseEvent) {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented;
}

/**
 * An internal link that works with or without the router: inside the app it is the router's Link;
 * in the landing shell it starts the app at the target path.
 */
export function SmartLink({ to, onClick, ...props }: SmartLinkProps) {
  const Impl = useContext(LinkImplContext);
  if (Impl) return <Impl to={to} onClick={onClick} {...props} />;
  return (
    <a
      href={to}
      onPointerEnter={preloadApp}
      onFocus={preloadApp}
      onTouchStart={preloadApp}
      onClick={(e) => {
        onClick?.(e);
        if (!isPlainClick(e) || props.target) return;
        e.preventDefault();
        startApp({ to });
      }}
      {...props}
    />
  );
}
