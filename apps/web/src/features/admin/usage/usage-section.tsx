/** The admin area's usage (issue 30). */
export function UsageSection() {
  return <p>Coming in this issue.</p>;
}
