import { BaseProviders, touchTheme } from "@gym/web/app";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PageLoader } from "./PageLoader";

describe("the entry's page loader", () => {
  it("holds a status region at once and then shows the UI kit's spinner", async () => {
    render(
      <BaseProviders theme={touchTheme} env="test">
        <PageLoader />
      </BaseProviders>,
    );
    expect(screen.getByRole("status", { name: "Loading" })).toBeInTheDocument();
    // The UI kit's PageLoader: a centred region holding Mantine's Loader, itself named "Loading".
    const spinner = await screen.findByLabelText("Loading", { selector: ".mantine-Loader-root" });
    expect(spinner).toBeInTheDocument();
  });
});
