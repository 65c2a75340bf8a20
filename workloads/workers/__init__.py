"""What runs jobs on the workers, apart from the tasks themselves: queueing a task by name (dispatch), the lease a
worker holds on its job (leases), the sweep that sends lost jobs again (recovery) and asks the broker what it
still holds (broker_messages), and every worker asking for that sweep (worker_watch).

Beside the layers: it imports only the models; the layers that start jobs import its dispatch.
"""
