import { Alert } from "@mantine/core";
import { IconAlertCircle } from "@tabler/icons-react";
import { type ReactNode, useEffect, useRef } from "react";

export interface FormErrorProps {
  title: string;
  /** The server's message; nothing is shown when empty. */
  children: ReactNode;
}

/**
 * A form-level failure (e.g. the server refused the sign-in). Announced as an alert and
 * scrolled into view, so it is seen on a phone even when the submit button was far below.
 */
export function FormError({ title, children }: FormErrorProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ behavior: "smooth", block: "center" });
  }, []);
  if (children === null || children === undefined || children === "") return null;
  return (
    <Alert ref={ref} color="red" icon={<IconAlertCircle size={18} />} title={title}>
      {children}
    </Alert>
  );
}
