/** The admin area's allowances (issue 30). */
export function AllowancesSection() {
  return <p>Coming in this issue.</p>;
}
