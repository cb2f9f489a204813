/** The admin area's access (issue 30). */
export function AccessSection() {
  return <p>Coming in this issue.</p>;
}
