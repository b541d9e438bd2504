import type { StorefrontError } from "../lib/errors";
import styles from "../storefront.module.css";

/** An error as the customer sees it: what happened, which fields, what to quote, what to do. */
export function ErrorNotice(props: { error: StorefrontError; title?: string; onRetry?: () => void; id?: string }) {
  const { error, title, onRetry, id } = props;
  const fields = error.fields.filter((field) => !error.message.includes(field.message));
  return (
    <div role="alert" className={styles.error} id={id}>
      <p>
        {title ? <strong>{title} </strong> : null}
        {error.message}
      </p>
      {fields.length > 0 ? (
        <ul>
          {fields.map((field) => (
            <li key={`${field.path}:${field.message}`}>
              <code>{field.path}</code>: {field.message}
            </li>
          ))}
        </ul>
      ) : null}
      {error.requestId ? <p className={styles.muted}>Reference: {error.requestId}</p> : null}
      {onRetry ? (
        <button type="button" className={styles.secondaryButton} onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
