import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';

import styles from './menu-button.module.css';

export type MenuEntry = {
  /** What the entry says; also what typing its first letter jumps to. */
  label: string;
  onSelect: () => void;
  /** A line above it, to set it apart from the entries before. */
  separated?: boolean;
};

type MenuButtonProps = {
  /** The button's visible words. */
  label: string;
  /** Words only screen readers hear after the label, to tell many such buttons apart. */
  labelDetail?: string;
  entries: readonly MenuEntry[];
  className?: string;
};

type Opening = { focus: 'first' | 'last' } | null;

/**
 * A button that opens a menu of actions (the WAI-ARIA menu button pattern): Enter, Space or
 * Down opens it on the first entry, Up on the last; Up, Down, Home, End and a first letter move
 * within it; Escape closes it and gives the button its focus back, as choosing an entry does
 * (the entry's action then runs: a dialog it opens hands the focus back to the button too). Tab
 * or a click elsewhere closes it. It opens upwards, or from its left edge, where there is no
 * room below or to the left.
 */
export function MenuButton({ label, labelDetail, entries, className }: MenuButtonProps) {
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;
  const [opening, setOpening] = useState<Opening>(null);
  const [placement, setPlacement] = useState({ up: false, fromStart: false });
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const open = opening !== null;

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useLayoutEffect(() => {
    if (!opening) return;
    const menu = menuRef.current;
    const button = buttonRef.current;
    if (menu && button) {
      const room = button.getBoundingClientRect();
      const { height, width } = menu.getBoundingClientRect();
      setPlacement({
        up: room.bottom + height > window.innerHeight && room.top - height > 0,
        fromStart: room.right - width < 0,
      });
    }
    const list = items();
    (opening.focus === 'first' ? list[0] : list[list.length - 1])?.focus();
  }, [opening]);

  // A press anywhere outside closes the menu; the focus stays where that press put it.
  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpening(null);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function close() {
    setOpening(null);
    buttonRef.current?.focus();
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    // Enter and Space are the button's own click, which opens it on the first entry too.
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpening({ focus: 'first' });
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setOpening({ focus: 'last' });
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at - 1);
      case 'Home':
      case 'PageUp':
        return move(0);
      case 'End':
      case 'PageDown':
        return move(list.length - 1);
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        return close();
      case 'Tab':
        // The focus goes on from the button, to what follows (or precedes) it.
        return close();
      default: {
        if (event.key.length !== 1 || event.altKey || event.ctrlKey || event.metaKey) return;
        const letter = event.key.toLocaleLowerCase();
        const startsWith = (index: number) =>
          entries[index]?.label.toLocaleLowerCase().startsWith(letter) ?? false;
        const next = [...list.keys()]
          .map((offset) => (at + 1 + offset) % list.length)
          .find((index) => startsWith(index));
        if (next !== undefined) move(next);
      }
    }
  }

  function choose(entry: MenuEntry) {
    close();
    entry.onSelect();
  }

  const menuClass = [
    styles.menu,
    placement.up ? styles.up : null,
    placement.fromStart ? styles.fromStart : null,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div ref={wrapperRef} className={[styles.wrapper, className].filter(Boolean).join(' ')}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className={styles.button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpening(null) : setOpening({ focus: 'first' }))}
        onKeyDown={onButtonKeyDown}
      >
        {label}
        {labelDetail ? <span className="visually-hidden">{labelDetail}</span> : null}
        <svg
          className={styles.chevron}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          className={menuClass}
          onKeyDown={onMenuKeyDown}
        >
          {entries.map((entry) => (
            <MenuItem key={entry.label} separated={entry.separated} onClick={() => choose(entry)}>
              {entry.label}
            </MenuItem>
          ))}
        </div>
      ) : null}
    </div>
  );
}

function MenuItem({
  separated,
  onClick,
  children,
}: {
  separated: boolean | undefined;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <>
      {separated ? <div role="separator" className={styles.separator} /> : null}
      <button type="button" role="menuitem" tabIndex={-1} className={styles.item} onClick={onClick}>
        {children}
      </button>
    </>
  );
}
