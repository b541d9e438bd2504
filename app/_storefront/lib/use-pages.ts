import { useCallback, useEffect, useRef, useState } from "react";
import { asStorefrontError, type StorefrontError } from "./errors";

export type Page<T> = { items: T[]; nextCursor: string | null };

export type Pages<T> = {
  items: T[];
  /** The first page has arrived (or failed). */
  loaded: boolean;
  loading: boolean;
  error: StorefrontError | undefined;
  hasMore: boolean;
  loadMore: () => void;
  reload: () => void;
};

/**
 * A cursor-paginated list: the first page whenever `key` changes (null: nothing to load), then
 * one more page per `loadMore`. Answers for an older key are dropped.
 */
export function usePages<T>(key: string | null, fetchPage: (cursor?: string) => Promise<Page<T>>): Pages<T> {
  const [state, setState] = useState<{ items: T[]; nextCursor: string | null; loaded: boolean; loading: boolean; error?: StorefrontError }>({
    items: [],
    nextCursor: null,
    loaded: false,
    loading: key !== null,
  });
  const [attempt, setAttempt] = useState(0);
  const fetchRef = useRef(fetchPage);
  const generation = useRef(0);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  const load = useCallback((cursor: string | undefined, append: boolean) => {
    const mine = generation.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    fetchRef.current(cursor).then(
      (page) => {
        if (generation.current !== mine) return;
        setState((previous) => ({ items: append ? [...previous.items, ...page.items] : page.items, nextCursor: page.nextCursor, loaded: true, loading: false }));
      },
      (error: unknown) => {
        if (generation.current !== mine) return;
        setState((previous) => ({ ...previous, loaded: true, loading: false, error: asStorefrontError(error) }));
      },
    );
  }, []);

  useEffect(() => {
    if (key === null) return;
    generation.current += 1;
    load(undefined, false);
  }, [key, attempt, load]);

  const { nextCursor } = state;
  return {
    items: state.items,
    loaded: state.loaded,
    loading: state.loading,
    error: state.error,
    hasMore: nextCursor !== null,
    loadMore: useCallback(() => {
      if (nextCursor) load(nextCursor, true);
    }, [load, nextCursor]),
    reload: useCallback(() => setAttempt((value) => value + 1), []),
  };
}
