from proofs_check.claims import bldp as bldp
from proofs_check.claims import partial_knowledge as partial_knowledge
