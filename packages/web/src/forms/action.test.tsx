import { Button } from "@mantine/core";
import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { renderWithProviders } from "../testing";
import { type ActionOptions, useAction } from ".";

function SaveButton({
  save,
  options,
}: {
  save: (n: number) => Promise<string>;
  options?: ActionOptions<[number]>;
}) {
  const action = useAction(save, options);
  return (
    <>
      <Button onClick={() => void action.run(7)} loading={action.running}>
        Save
      </Button>
      <p>{action.runningWith ? `saving ${action.runningWith[0]}` : "idle"}</p>
    </>
  );
}

function deferred() {
  let resolve: (value: string) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("useAction", () => {
  it("is busy while it runs, and a second click while busy saves nothing more", async () => {
    const call = deferred();
    const save = vi.fn(() => call.promise);
    const { user } = renderWithProviders(<SaveButton save={save} />);
    const button = screen.getByRole("button", { name: "Save" });
    await user.click(button);
    expect(await screen.findByText("saving 7")).toBeInTheDocument();
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute("data-loading", "true");
    button.click();
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith(7);
    await act(async () => call.resolve("done"));
    expect(await screen.findByText("idle")).toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it("answers the result, and undefined for a call while one runs", async () => {
    const call = deferred();
    let action: ReturnType<typeof useAction<[], string>> | null = null;
    function Probe() {
      action = useAction(() => call.promise);
      return null;
    }
    renderWithProviders(<Probe />);
    let first: Promise<string | undefined> = Promise.resolve(undefined);
    let second: Promise<string | undefined> = Promise.resolve(undefined);
    act(() => {
      first = action?.run() ?? first;
      second = action?.run() ?? second;
    });
    await act(async () => call.resolve("saved"));
    expect(await first).toBe("saved");
    expect(await second).toBeUndefined();
  });

  it("shows a failure as an error toast with the server's message under the summary", async () => {
    const save = vi.fn(() => Promise.reject(new ApiError({ status: 409, message: "Already cancelled." })));
    const { user } = renderWithProviders(<SaveButton save={save} options={{ errorSummary: "Not saved" }} />);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Not saved")).toBeInTheDocument();
    expect(screen.getByText("Already cancelled.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Save" })).toBeEnabled());
  });

  it("hands a failure, with the call's arguments, to onError instead of the toast", async () => {
    const failure = new ApiError({ status: 422, message: "Bad", errors: { name: ["Bad"] } });
    const onError = vi.fn();
    const { user } = renderWithProviders(
      <SaveButton save={() => Promise.reject(failure)} options={{ onError, errorSummary: "Not saved" }} />,
    );
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onError).toHaveBeenCalledWith(failure, 7));
    expect(screen.queryByText("Not saved")).not.toBeInTheDocument();
  });

  it("stays busy after a success that leaves the page", async () => {
    const save = vi.fn((n: number) => Promise.resolve(n === 7 ? "left" : "stayed"));
    const { user } = renderWithProviders(
      <SaveButton save={save} options={{ leavesPage: (result) => result === "left" }} />,
    );
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(screen.getByText("saving 7")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });
});
