import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { NavLink } from 'react-router';

import { ChevronRightIcon, CloseIcon } from '@/components/ui/icons';

import { Brand } from './brand';
import styles from './mobile-menu.module.css';
import type { NavItem } from './nav-items';

type MobileMenuOverlayProps = {
  id: string;
  items: readonly NavItem[];
  onClose: () => void;
  /** Gets focus back however the menu closes (Escape, close button, a link). */
  returnFocusTo: RefObject<HTMLElement | null>;
};

const focusableSelector = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function MobileMenuOverlay({ id, items, onClose, returnFocusTo }: MobileMenuOverlayProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const trigger = returnFocusTo.current;
    closeRef.current?.focus();
    document.body.dataset.mobileMenuOpen = '';

    // On the document, so Escape works even when a click left focus on the overlay's backdrop.
    function onDocumentKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key === 'Escape') onCloseRef.current();
    }
    document.addEventListener('keydown', onDocumentKeyDown);

    return () => {
      document.removeEventListener('keydown', onDocumentKeyDown);
      delete document.body.dataset.mobileMenuOpen;
      trigger?.focus();
    };
  }, [returnFocusTo]);

  // The page behind is covered, so Tab cycles inside the menu instead of into hidden content.
  function keepFocusInside(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = dialogRef.current.querySelectorAll<HTMLElement>(focusableSelector);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div
      ref={dialogRef}
      id={id}
      className={styles.overlay}
      role="dialog"
      aria-modal="true"
      aria-label="Menu"
      tabIndex={-1}
      onKeyDown={keepFocusInside}
    >
      <div className={styles.bar}>
        <Brand onDark onNavigate={onClose} />
        <button
          ref={closeRef}
          type="button"
          className={styles.close}
          aria-label="Close menu"
          onClick={onClose}
        >
          <CloseIcon />
          <span>Close</span>
        </button>
      </div>
      <nav className={styles.nav} aria-label="Main">
        <ul className={styles.list}>
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end} className={styles.link} onClick={onClose}>
                {item.label}
                <ChevronRightIcon />
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <p className={styles.note}>GEM · Generative and Enhanced Marketing</p>
    </div>,
    document.body,
  );
}
