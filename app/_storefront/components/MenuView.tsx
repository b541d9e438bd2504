import type { StorefrontError } from "../lib/errors";
import { formatDate, formatTime } from "../lib/format";
import type { MenuList, Product } from "../lib/types";
import styles from "../storefront.module.css";
import { ErrorNotice } from "./ErrorNotice";
import { ProductTile } from "./ProductTile";

/** The menus served at the chosen moment, category by category, with a jump list for small screens. */
export function MenuView(props: { menus: MenuList | undefined; loading: boolean; error: StorefrontError | undefined; onRetry: () => void; isNow: boolean; timeZone: string; onOpen: (product: Product) => void }) {
  const { menus, loading, error, onRetry, isNow, timeZone, onOpen } = props;
  const categories = menus?.menus.flatMap((menu) => menu.categories) ?? [];
  return (
    <section id="menu" className={styles.menu} aria-labelledby="menu-heading" aria-busy={loading}>
      <div className={styles.menuHeader}>
        <h2 id="menu-heading">Menu</h2>
        {menus ? (
          <p className={styles.muted} data-testid="menu-moment">
            {isNow ? "Served now" : "Served"} · {formatDate(menus.orderDate)} at {formatTime(menus.orderTime)} ({timeZone.replace(/_/g, " ")} time)
          </p>
        ) : null}
        {loading ? (
          <p role="status" className={styles.status}>
            Loading menu…
          </p>
        ) : null}
      </div>
      {error ? <ErrorNotice error={error} title="We could not load the menu." onRetry={onRetry} /> : null}
      {menus && menus.menus.length === 0 ? <p className={styles.empty}>Nothing is served at this time. Try another time.</p> : null}
      {categories.length > 1 ? (
        <nav aria-label="Menu categories" className={styles.categoryNav}>
          <ul>
            {categories.map((category) => (
              <li key={category.id}>
                <a href={`#${category.id}`}>{category.name}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {menus?.menus.map((menu) => (
        <section key={menu.id} aria-labelledby={`${menu.id}-title`} className={styles.menuBlock}>
          <h2 id={`${menu.id}-title`} className={styles.menuTitle}>
            {menu.name}
          </h2>
          {menu.description ? <p className={styles.muted}>{menu.description}</p> : null}
          {menu.categories.map((category) => (
            <section key={category.id} id={category.id} aria-labelledby={`${category.id}-title`} className={styles.category}>
              <h3 id={`${category.id}-title`}>{category.name}</h3>
              {category.description ? <p className={styles.muted}>{category.description}</p> : null}
              <ul className={styles.grid}>
                {category.products.map((product) => (
                  <li key={product.id}>
                    <ProductTile product={product} onOpen={onOpen} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </section>
      ))}
    </section>
  );
}
