import type { StorefrontError } from "../lib/errors";
import { customerMessage } from "../lib/customer-message";
import styles from "../storefront.module.css";

/**
 * An error as the customer sees it: what happened in their words, what to do, and the request id
 * for support, tucked away rather than made the message. Per-field problems are shown next to the
 * fields themselves by the forms that own them.
 */
export function ErrorNotice(props: { error: StorefrontError; title?: string; onRetry?: () => void; id?: string }) {
  const { error, title, onRetry, id } = props;
  return (
    <div role="alert" className={styles.error} id={id}>
      <p>
        {title ? <strong>{title} </strong> : null}
        {customerMessage(error)}
      </p>
      {error.requestId ? (
        <details className={styles.muted}>
          <summary>Support reference</summary>
          <p data-testid="support-reference">{error.requestId}</p>
        </details>
      ) : null}
      {onRetry ? (
        <button type="button" className={styles.secondaryButton} onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
