/** The main navigation (spec §2 "Shared layout"), shared by the desktop bar and the mobile menu. */
export type NavItem = {
  to: string;
  label: string;
  /** Match only this exact path, so Home is not "current" on every page. */
  end?: boolean;
  /** Shown only to signed-in users. */
  signedInOnly?: boolean;
  /** Shown only to GEM's administrators (the server checks every admin call too). */
  adminOnly?: boolean;
};

const navItems: readonly NavItem[] = [
  { to: '/', label: 'Home', end: true },
  { to: '/market-research', label: 'Market Research' },
  { to: '/tools', label: 'Tools' },
  { to: '/campaigns', label: 'Campaigns' },
  { to: '/how-to-use', label: 'How to use' },
  { to: '/admin', label: 'Admin', signedInOnly: true, adminOnly: true },
  { to: '/logout', label: 'Logout', signedInOnly: true },
];

export function visibleNavItems(isAuthenticated: boolean, isAdmin = false): readonly NavItem[] {
  return navItems.filter((item) => (isAuthenticated || !item.signedInOnly) && (isAdmin || !item.adminOnly));
}
