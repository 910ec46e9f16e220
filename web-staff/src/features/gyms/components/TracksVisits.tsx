import { toastApiError } from "@gym/web/toast";
import { Switch } from "@mantine/core";
import { useState } from "react";
import { type Gym, setTracksVisits } from "../api/gyms";

/** The gym-wide visit tracking switch, saved as it is flipped. */
export function TracksVisits({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Switch
      label="Track visits at this gym"
      description="Door unlocks on doors marked below become visits."
      checked={gym.tracks_visits}
      disabled={busy}
      onChange={async (event) => {
        setBusy(true);
        try {
          onSaved(await setTracksVisits(gym.id, event.currentTarget.checked));
        } catch (error) {
          toastApiError(error, "Visit tracking was not changed");
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}
