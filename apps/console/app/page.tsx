export default function HomePage() {
  return (
    <main>
      <h1>Toolgate console</h1>
      <p>
        The console arrives with the registry and gateway: catalog, releases, policies, approvals,
        calls, audit and SLOs.
      </p>
    </main>
  );
}
