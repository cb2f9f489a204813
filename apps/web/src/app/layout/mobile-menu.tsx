import { useRef, useState } from 'react';
import { useLocation } from 'react-router';

import { MenuIcon } from '@/components/ui/icons';

import { MobileMenuOverlay } from './mobile-menu-overlay';
import styles from './mobile-menu.module.css';
import type { NavItem } from './nav-items';

const overlayId = 'mobile-menu';

/** The mobile bar's menu button and the full-screen menu it opens (below 768 px). */
export function MobileMenu({ items }: { items: readonly NavItem[] }) {
  const location = useLocation();
  const [isOpen, setIsOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(location.key);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // Any navigation closes the menu, including the browser's back button.
  if (openedAt !== location.key) {
    setOpenedAt(location.key);
    setIsOpen(false);
  }

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={styles.toggle}
        aria-expanded={isOpen}
        aria-controls={isOpen ? overlayId : undefined}
        aria-haspopup="dialog"
        onClick={() => setIsOpen(true)}
      >
        <MenuIcon />
        <span>Menu</span>
      </button>
      {isOpen ? (
        <MobileMenuOverlay
          id={overlayId}
          items={items}
          onClose={() => setIsOpen(false)}
          returnFocusTo={buttonRef}
        />
      ) : null}
    </>
  );
}
