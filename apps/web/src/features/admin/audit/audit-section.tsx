/** The admin area's audit (issue 30). */
export function AuditSection() {
  return <p>Coming in this issue.</p>;
}
