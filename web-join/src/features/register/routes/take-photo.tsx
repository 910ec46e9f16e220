import { errorMessage, isApiError } from "@gym/web/api";
import { useAction } from "@gym/web/forms";
import { FormError } from "@gym/web/ui";
import { Avatar, Button, Center, Paper, Stack, Text } from "@mantine/core";
import { useDocumentTitle } from "@mantine/hooks";
import { IconCamera } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { refreshRegistration, uploadPhoto, useRegistration } from "../api/registration";
import { squarePhoto } from "../components/photo";

/**
 * `/take-photo`: the phone's camera through the file input's `capture` (or a file), cropped to a
 * square and shrunk in the browser, then `POST /api/profile-picture`.
 */
export function TakePhotoRoute() {
  useDocumentTitle("Add a profile photo · Join");
  const navigate = useNavigate();
  const { data: state } = useRegistration();
  const input = useRef<HTMLInputElement>(null);
  const [photo, setPhoto] = useState<Blob | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useAction(
    async (file: Parameters<typeof uploadPhoto>[0]) => {
      await uploadPhoto(file);
      await refreshRegistration();
      navigate("/choose-payment-method");
    },
    {
      onError: (failure) =>
        setError(
          isApiError(failure) ? (failure.errors.file?.[0] ?? errorMessage(failure)) : errorMessage(failure),
        ),
    },
  );
  const busy = upload.running;

  useEffect(() => {
    if (!photo) return;
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  const choose = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    try {
      setPhoto(await squarePhoto(file));
    } catch {
      setError("That file is not a photo we can use. Choose a JPEG, PNG or WebP photo.");
    }
  };

  const save = () => {
    if (!photo) {
      setError("Take or choose a photo first.");
      return;
    }
    void upload.run(photo);
  };

  const current = preview ?? state?.profile_picture ?? null;
  return (
    <JoinLayout
      gym={state?.gym}
      title="Add a profile photo"
      description="Staff use your photo to recognise you at the front desk. Face the camera in good light."
    >
      <Paper withBorder p={{ base: "md", xs: "lg" }} shadow="xs">
        <Stack gap="md">
          {error && <FormError title="We could not use that photo">{error}</FormError>}
          <Center>
            <Avatar src={current} size={180} radius={180} alt={current ? "Your photo" : ""}>
              <IconCamera size={56} aria-hidden />
            </Avatar>
          </Center>
          <input
            ref={input}
            id="photo-file"
            type="file"
            accept="image/*"
            capture="user"
            aria-label="Photo"
            style={{ position: "absolute", width: 1, height: 1, opacity: 0, pointerEvents: "none" }}
            onChange={(event) => void choose(event.currentTarget.files?.[0])}
          />
          <Button
            variant={photo ? "default" : "filled"}
            size="lg"
            fullWidth
            leftSection={<IconCamera size={20} />}
            onClick={() => input.current?.click()}
          >
            {current ? "Take another photo" : "Take a photo"}
          </Button>
          {photo && (
            <Button size="lg" fullWidth onClick={save} loading={busy}>
              Use this photo
            </Button>
          )}
          {!photo && state?.profile_picture && (
            <Button size="lg" fullWidth variant="light" onClick={() => navigate("/choose-payment-method")}>
              Keep my photo
            </Button>
          )}
          <Text size="sm" c="gray.7" ta="center">
            On a computer this opens your files instead of a camera.
          </Text>
        </Stack>
      </Paper>
    </JoinLayout>
  );
}

export { TakePhotoRoute as Component };
