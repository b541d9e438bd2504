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
 * after the key moved on are dropped, so a slow response never overwrites a newer one.
 */
export function useQuery<T>(key: string | null, fetcher: () => Promise<T>): Query<T> {
  const [state, setState] = useState<{ data?: T; error?: StorefrontError; loading: boolean }>({ loading: key !== null });
  const [attempt, setAttempt] = useState(0);
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    if (key === null) return;
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
