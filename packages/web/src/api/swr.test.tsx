import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { jsonResponse, mockFetch, renderWithProviders } from "../testing";
import { useApi, useApiList } from ".";

function Gym() {
  const { data, error } = useApi<{ name: string }>("/api/gyms/g1");
  if (error) return <p>error {error.status}</p>;
  return <p>{data ? data.name : "loading"}</p>;
}

function Gyms() {
  const { data } = useApiList<{ id: string }>("/api/gyms");
  return <p>{data ? `${data.data.length} gyms, next ${data.meta.next_cursor}` : "loading"}</p>;
}

describe("useApi", () => {
  it("reads data through the client", async () => {
    mockFetch(() => jsonResponse({ data: { name: "Ponsonby" } }));
    renderWithProviders(<Gym />);
    expect(await screen.findByText("Ponsonby")).toBeInTheDocument();
  });

  it("exposes the ApiError and does not retry a 404", async () => {
    const { calls } = mockFetch(() => jsonResponse({ message: "Not found" }, 404));
    renderWithProviders(<Gym />);
    expect(await screen.findByText("error 404")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
  });

  it("reads lists with their paging meta", async () => {
    mockFetch(() =>
      jsonResponse({ data: [{ id: "a" }, { id: "b" }], meta: { next_cursor: "c2", per_page: 2 } }),
    );
    renderWithProviders(<Gyms />);
    expect(await screen.findByText("2 gyms, next c2")).toBeInTheDocument();
  });
});
