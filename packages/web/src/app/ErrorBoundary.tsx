import { Component, type ErrorInfo, type ReactNode } from "react";
import { ErrorPage } from "./ErrorPages";

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Replaces the default error page. */
  fallback?: (error: unknown, reset: () => void) => ReactNode;
  onError?: (error: unknown, info: ErrorInfo) => void;
}

interface State {
  error: unknown;
  failed: boolean;
}

/** Catches render errors below it and shows the error page instead of a blank screen. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    this.props.onError?.(error, info);
  }

  reset = () => this.setState({ error: undefined, failed: false });

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.fallback) return this.props.fallback(this.state.error, this.reset);
    return <ErrorPage error={this.state.error} />;
  }
}
