import { useCallback, useEffect, useRef, useState } from "react";
import { asStorefrontError, type StorefrontError } from "./errors";

export type Query<T> = {
  data: T | undefined;
  error: StorefrontError | undefined;
  /** True while a load for the current key runs; earlier data stays visible meanwhile. */
  loading: boolean;
  reload: () => void;
};

/**
 * A read that reloads whenever `key` changes (null: nothing to load yet). Answers that arrive
 * after the key moved on are dropped, so a slow response never overwrites a newer one. `initial`
 * is the answer for the first key as the server rendered it: shown at once, not fetched again.
 */
export function useQuery<T>(key: string | null, fetcher: () => Promise<T>, initial?: T): Query<T> {
  const [state, setState] = useState<{ data?: T; error?: StorefrontError; loading: boolean }>(initial !== undefined ? { data: initial, loading: false } : { loading: key !== null });
  const renderedKey = useRef(initial !== undefined ? key : null);
  const [attempt, setAttempt] = useState(0);
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    if (key === null) return;
    if (key === renderedKey.current && attempt === 0) return;
    renderedKey.current = null;
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    fetcherRef.current().then(
      (data) => {
        if (current) setState({ data, loading: false });
      },
      (error: unknown) => {
        if (current) setState((previous) => ({ data: previous.data, error: asStorefrontError(error), loading: false }));
      },
    );
    return () => {
      current = false;
    };
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
