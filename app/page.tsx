import Link from "next/link";

const locations = [
  { slug: "harbor-kitchen-downtown", name: "Harbor Kitchen · Downtown", note: "Boston · takeout, delivery, table-side" },
  { slug: "dune-grill-marina", name: "Dune Grill · Marina", note: "Dubai · takeout, room service" },
];

export default function HomePage() {
  return (
    <main style={{ maxWidth: 720, margin: "0 auto", padding: "2rem 1rem" }}>
      <h1>Storefront Ordering Service</h1>
      <p>An open-source ordering API for restaurant storefronts, with a small demo storefront.</p>
      <h2>Order from a demo location</h2>
      <ul>
        {locations.map((location) => (
          <li key={location.slug}>
            <Link href={`/l/${location.slug}`}>{location.name}</Link> <small>{location.note}</small>
          </li>
        ))}
      </ul>
      <h2>For developers</h2>
      <ul>
        <li>
          <Link href="/docs">API reference</Link> (rendered from <code>/api/v1/storefront/openapi.json</code>)
        </li>
      </ul>
    </main>
  );
}
