import { useDocumentTitle } from "@mantine/hooks";
import { useNavigate } from "react-router-dom";
import { JoinLayout } from "../../../components/JoinLayout";
import { register } from "../api/register";
import { RegisterForm } from "../components/RegisterForm";

export function RegisterRoute() {
  useDocumentTitle("Join the gym");
  const navigate = useNavigate();
  return (
    <JoinLayout
      title="Join the gym"
      description="Create your account, then choose your membership and how to pay. It takes a few minutes."
    >
      <RegisterForm onSubmit={register} onSuccess={() => navigate("/verification-code")} />
    </JoinLayout>
  );
}

export { RegisterRoute as Component };
