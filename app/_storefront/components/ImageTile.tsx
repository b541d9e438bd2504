import { initialOf, placeholderHue } from "../lib/format";
import styles from "../storefront.module.css";

/** The product's photo, or (the demo has none) a coloured tile with its initial. Decorative: the name is in the text. */
export function ImageTile(props: { id: string; name: string; imageUrl: string; size?: "small" | "large" }) {
  const { id, name, imageUrl, size = "small" } = props;
  const className = size === "large" ? styles.imageLarge : styles.image;
  if (imageUrl) {
    // A plain <img>: merchant images come from arbitrary hosts, which next/image would need listed.
    return <img className={className} src={imageUrl} alt="" loading="lazy" />;
  }
  const hue = placeholderHue(id);
  return (
    <span className={className} aria-hidden="true" style={{ background: `hsl(${hue} 55% 88%)`, color: `hsl(${hue} 45% 28%)` }}>
      {initialOf(name)}
    </span>
  );
}
