/** The admin area's integrations (issue 30). */
export function IntegrationsSection() {
  return <p>Coming in this issue.</p>;
}
