export default function HomePage() {
  return (
    <main>
      <h1>Mailstead</h1>
      <p>The API is served under /v2. The dashboard is on its way.</p>
    </main>
  );
}
