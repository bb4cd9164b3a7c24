import { useEffect } from 'react';

/** Sets document.title while the component is shown, restoring the previous title afterwards (pages with a full
 * head use usePageHead in page-head.tsx). */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
