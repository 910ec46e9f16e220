import { useAction } from "@gym/web/forms";
import { Switch } from "@mantine/core";
import { type Gym, setTracksVisits } from "../api/gyms";

/** The gym-wide visit tracking switch, saved as it is flipped. */
export function TracksVisits({ gym, onSaved }: { gym: Gym; onSaved: (gym: Gym) => void }) {
  const save = useAction(async (on: boolean) => onSaved(await setTracksVisits(gym.id, on)), {
    errorSummary: "Visit tracking was not changed",
  });
  return (
    <Switch
      label="Track visits at this gym"
      description="Door unlocks on doors marked below become visits."
      checked={gym.tracks_visits}
      disabled={save.running}
      onChange={(event) => void save.run(event.currentTarget.checked)}
    />
  );
}
