import type { Product } from "../lib/types";
import styles from "../storefront.module.css";
import { ImageTile } from "./ImageTile";

/** A menu entry: a button that opens the product dialog, or a plain, dimmed card when sold out. */
export function ProductTile(props: { product: Product; onOpen: (product: Product) => void }) {
  const { product, onOpen } = props;
  const body = (
    <>
      <ImageTile id={product.id} name={product.name} imageUrl={product.imageUrl} />
      <span className={styles.tileBody}>
        <span className={styles.tileName}>{product.name}</span>
        <span className={styles.tileDescription}>{product.description}</span>
        <span className={styles.price}>
          {product.priceFormatted}
          {product.available ? null : <span className={styles.badge}>Sold out</span>}
        </span>
      </span>
    </>
  );
  if (!product.available) {
    return (
      <div className={`${styles.tile} ${styles.soldOut}`} aria-label={`${product.name}, sold out`} role="group" data-testid="product-sold-out">
        {body}
      </div>
    );
  }
  return (
    <button type="button" className={styles.tile} onClick={() => onOpen(product)} aria-haspopup="dialog">
      {body}
    </button>
  );
}
