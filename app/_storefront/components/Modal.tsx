"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { openModals } from "../lib/open-modals";
import styles from "../storefront.module.css";

/**
 * A modal on the native <dialog>: showModal() makes the page behind it inert (focus stays inside)
 * and Escape closes it. On close, focus returns to the element that opened it. Children mount only
 * while open, so every opening starts from a clean state.
 */
export function Modal(props: { open: boolean; onClose: () => void; labelledBy: string; variant?: "centered" | "drawer"; children: ReactNode }) {
  const { open, onClose, labelledBy, variant = "centered", children } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      openModals.opened(dialog);
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    return () => {
      if (dialog) openModals.closed(dialog);
    };
  }, []);

  const handleClose = () => {
    if (dialogRef.current) openModals.closed(dialogRef.current);
    onClose();
    const target = returnFocusTo.current;
    returnFocusTo.current = null;
    if (target?.isConnected) target.focus();
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={labelledBy}
      className={variant === "drawer" ? styles.drawer : styles.dialog}
      onClose={handleClose}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside its content box.
        if (event.target === event.currentTarget) dialogRef.current?.close();
      }}
    >
      {open ? <div className={styles.dialogBody}>{children}</div> : null}
    </dialog>
  );
}
